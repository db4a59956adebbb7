# pip install openai
from openai import OpenAI

client = OpenAI(base_url="https://router.huggingface.co/v1", api_key="hf_***")

completion = client.chat.completions.create(
    model="meta-llama/Llama-3.1-8B-Instruct",
    messages=[
        {
            "role": "user",
            "content": "What is the capital of France?",
        },
    ],
    max_tokens=500,
)

print(completion.choices[0].message.content)
