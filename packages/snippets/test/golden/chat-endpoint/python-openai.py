# pip install openai
from openai import OpenAI

client = OpenAI(
    base_url="https://abc123.us-east-1.aws.endpoints.huggingface.cloud/v1",
    api_key="hf_example",
)

stream = client.chat.completions.create(
    model="HuggingFaceH4/zephyr-7b-beta",
    messages=[
        {
            "role": "system",
            "content": "Answer in one sentence.",
        },
        {
            "role": "user",
            "content": "What's the \"capital\" of France?",
        },
    ],
    max_tokens=100,
    temperature=0.7,
    stream=True,
)

for chunk in stream:
    if chunk.choices:
        print(chunk.choices[0].delta.content or "", end="", flush=True)
