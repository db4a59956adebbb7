curl http://localhost:8080/models/openai-community/gpt2 \
    -H 'Authorization: Bearer hf_***' \
    -H 'Content-Type: application/json' \
    -d '{
        "inputs": "What is the capital of France?",
        "parameters": {
            "max_new_tokens": 500,
            "temperature": 0.5
        }
    }'
