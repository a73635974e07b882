"""Network access for tools: always through the SSRF guard."""
