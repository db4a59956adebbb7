# pip install huggingface_hub
from huggingface_hub import InferenceClient

client = InferenceClient(
    base_url="http://localhost:8080/models/openai-community/gpt2",
    api_key="hf_***",
)

output = client.text_generation(
    "What is the capital of France?",
    max_new_tokens=500,
    temperature=0.5,
)

print(output)
