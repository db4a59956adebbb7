# pip install huggingface_hub
from huggingface_hub import InferenceClient

client = InferenceClient(provider="hf-inference", api_key="hf_***")

output = client.text_generation(
    "What is the capital of France?",
    model="openai-community/gpt2",
    max_new_tokens=500,
)

print(output)
