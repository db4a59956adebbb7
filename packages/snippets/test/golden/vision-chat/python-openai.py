# pip install openai
from openai import OpenAI

client = OpenAI(base_url="https://router.huggingface.co/v1", api_key="hf_***")

stream = client.chat.completions.create(
    model="Qwen/Qwen2.5-VL-7B-Instruct",
    messages=[
        {
            "role": "user",
            "content": "What is the capital of France?",
        },
    ],
    max_tokens=500,
    stream=True,
)

for chunk in stream:
    if chunk.choices:
        print(chunk.choices[0].delta.content or "", end="", flush=True)
