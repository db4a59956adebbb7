curl https://abc123.us-east-1.aws.endpoints.huggingface.cloud/v1/chat/completions \
    -H 'Authorization: Bearer hf_example' \
    -H 'Content-Type: application/json' \
    -d '{
        "model": "HuggingFaceH4/zephyr-7b-beta",
        "messages": [
            {
                "role": "system",
                "content": "Answer in one sentence."
            },
            {
                "role": "user",
                "content": "What'\''s the \"capital\" of France?"
            }
        ],
        "max_tokens": 100,
        "temperature": 0.7,
        "stream": false
    }'
