# pip install huggingface_hub
from huggingface_hub import InferenceClient

client = InferenceClient(api_key="hf_***")

completion = client.chat_completion(
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
