"""Optimizer construction for models with mixture-of-experts layers."""
