# Annotated fixture for smallfix scan (see masks.py).
from torch._six import inf  # scan: compat.import-fallback
from torch import nan  # the replacement of torch._six is not flagged


def param_groups(model, extra=[]):  # scan: param.mutable-default
    extra.append({"params": list(model.parameters())})
    return extra


def options(name,
            overrides={},  # scan: param.mutable-default
            dims=(0, 1)):
    """Options for one module."""
    return dict(overrides, name=name, dims=dims, limit=inf, nan=nan)


def call_with_keyword_list(fn):
    return fn(items=[])
