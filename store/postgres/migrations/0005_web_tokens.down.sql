DROP TABLE web_tokens;
