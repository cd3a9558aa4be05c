"""The Millionaire table companion: banker, broker, auction host and insurance director."""
