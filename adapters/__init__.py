"""Platform adapters: each turns one platform's updates into service calls and back."""
