"""What a value in scope is, read without running its code where that can be avoided.

Part of the runtime-facts capture (smallfix_fact_capture.py; the JSON is described in
docs/runtime-facts.md). A test's locals can be anything: a tensor of gigabytes, an object whose
__repr__ or properties raise or hang, os.environ. So: type facts come from the class, never from
the instance; tensors give their metadata, never their data; containers give len() only when
it is the built-in one; every access is guarded; a repr is bounded and cut short; values taken
from the environment are never written.
"""

import itertools
import os
import reprlib
import sys
import types
import warnings

REPR_CHARS = 120
LITERAL_CHARS = 80
MAX_ATTRS_NONE = 32
# Strings this long or longer that are the value of an environment variable are never written:
# a token read with os.environ["..."] is a local like any other.
ENV_VALUE_MIN_CHARS = 6
SECRET_WORDS = ("token", "secret", "password", "passwd", "api_key", "apikey", "credential")
CONTAINERS = (list, tuple, dict, set, frozenset, str, bytes, bytearray, range)


class Environment:
    """What of the process's environment must not be written: os.environ itself, any mapping
    that is mostly its variables (a copy, even one the test or pytest changed since), and the
    values of its variables, as the session started and as they are now."""

    def __init__(self):
        self.start = dict(os.environ)
        self.refresh()

    def refresh(self):
        """Takes in what the test set since (pytest itself sets PYTEST_CURRENT_TEST)."""
        self.now = dict(os.environ)
        self.values = {v for mapping in (self.start, self.now) for v in mapping.values()
                       if len(v) >= ENV_VALUE_MIN_CHARS}

    def is_environment(self, value):
        if value is os.environ or value is getattr(os.environ, "_data", None):
            return True
        if type(value) is not dict or len(value) < 3:
            return False
        sample = list(itertools.islice(value.items(), 200))
        shared = sum(1 for key, item in sample if type(key) is str and type(item) is str
                     and item in (self.now.get(key), self.start.get(key)))
        return shared * 2 > len(sample)

    def is_env_string(self, value):
        return type(value) is str and value in self.values


def safe_str(error, limit=2000):
    """str() of an exception (user code), cut short, or what made it fail."""
    try:
        return str(error)[:limit]
    except Exception as failure:
        return f"<str failed: {type(failure).__name__}>"


def secret_name(name):
    lowered = name.lower()
    return any(word in lowered for word in SECRET_WORDS)


def torch_tensor_class():
    torch = sys.modules.get("torch")  # never imported here: a test without torch has no tensors
    return getattr(torch, "Tensor", None) if torch is not None else None


def class_name(cls):
    try:
        module, name = cls.__module__, cls.__qualname__
    except Exception:
        return "?"
    return name if module in ("builtins", None) else f"{module}.{name}"


class BoundedRepr(reprlib.Repr):
    """reprlib's bounded repr, with tensors shown by their metadata (never their data), strings
    from the environment withheld, and any repr that raises named instead of propagated."""

    def __init__(self, environment):
        super().__init__()
        self.maxlevel, self.maxlist, self.maxdict, self.maxstring, self.maxother = 2, 6, 6, 60, 80
        self.environment = environment
        self.tensor = torch_tensor_class()

    def repr1(self, value, level):
        if self.environment.is_environment(value):
            return "<environment>"
        if self.environment.is_env_string(value):
            return "<from the environment>"
        cls = type(value)
        if self.tensor is not None and issubclass(cls, self.tensor):
            return tensor_repr(value)
        if is_torch_module(cls):
            return f"<{cls.__name__} module>"  # its repr walks the whole model
        try:
            return super().repr1(value, level)
        except Exception as error:
            return f"<repr failed: {type(error).__name__}>"


def tensor_repr(tensor):
    facts = tensor_facts(tensor)
    return "tensor(shape={}, dtype={}, device={})".format(facts.get("shape"), facts.get("dtype"),
                                                         facts.get("device"))


def is_torch_module(cls):
    nn = sys.modules.get("torch.nn")
    return nn is not None and issubclass(cls, nn.Module)


def tensor_facts(tensor):
    """Shape, dtype, device, requires_grad, and the None ones of grad and grad_fn: metadata,
    never the data (which may be on a device, huge, or fake)."""
    facts = {}
    for key, read in (("shape", lambda t: [int(n) for n in t.shape]), ("dtype", lambda t: str(t.dtype)),
                      ("device", lambda t: str(t.device)), ("requires_grad", lambda t: bool(t.requires_grad))):
        try:
            facts[key] = read(tensor)
        except Exception:
            pass
    none = []
    with warnings.catch_warnings():  # .grad of a non-leaf tensor warns
        warnings.simplefilter("ignore")
        for name in ("grad", "grad_fn"):
            try:
                if getattr(tensor, name) is None:
                    none.append(name)
            except Exception:
                pass
    facts["attrs_none"] = none
    shape = facts.get("shape")
    if shape:
        facts["len"] = shape[0]
    return facts


def literal(value):
    """A Python literal equal to `value` for None, bools, ints, floats and short strings."""
    cls = type(value)
    if value is None or cls is bool:
        return repr(value)
    if cls is int:
        return repr(value) if abs(value) < 10 ** 18 else None
    if cls is float:
        return repr(value) if value == value and abs(value) != float("inf") else f"float('{value}')"
    if cls is str and len(value) <= LITERAL_CHARS:
        return repr(value)
    return None


def instance_attrs_none(value):
    """The names of the instance's attributes that are None, read from its __dict__ without
    its __getattribute__; an nn.Module's parameters, buffers and submodules too."""
    try:
        attributes = object.__getattribute__(value, "__dict__")
    except Exception:
        return []
    if type(attributes) is not dict:
        return []
    names = [name for name, item in attributes.items() if item is None and type(name) is str]
    for table in ("_parameters", "_buffers", "_modules"):
        entries = attributes.get(table)
        if type(entries) is dict:
            names += [name for name, item in entries.items() if item is None and type(name) is str]
    return names[:MAX_ATTRS_NONE]


def builtin_len(value, cls):
    """len() of a built-in container, or None: a subclass's own __len__ is user code."""
    for base in CONTAINERS:
        if issubclass(cls, base):
            try:
                return len(value) if getattr(cls, "__len__", None) is base.__len__ else None
            except Exception:
                return None
    return None


def describe(value, environment, with_repr=True):
    """The facts of one value (a `locals` entry of docs/runtime-facts.md), or None when it must
    not be written (the environment)."""
    if environment.is_environment(value):
        return None
    cls = type(value)
    facts = {"type": getattr(cls, "__name__", "?"), "module": getattr(cls, "__module__", "?") or "",
             "none": value is None, "literal": None, "len": None, "shape": None, "dtype": None,
             "device": None, "requires_grad": None, "attrs_none": []}
    from_env = environment.is_env_string(value)
    tensor = torch_tensor_class()
    if tensor is not None and issubclass(cls, tensor):
        facts.update(tensor_facts(value))
    else:
        facts["len"] = builtin_len(value, cls)
        if not from_env:
            facts["literal"] = literal(value)
        if value is not None and not issubclass(cls, (type, types.ModuleType)):
            facts["attrs_none"] = instance_attrs_none(value)
    if with_repr:
        text = "<from the environment>" if from_env else BoundedRepr(environment).repr(value)
        facts["repr"] = text[:REPR_CHARS]
    return facts


def describe_locals(names_values, environment, limit=64):
    """name -> facts for a frame's locals, without secret-looking names, the environment,
    pytest's assertion temporaries (@py_assert1) or dunders (a module frame's __builtins__)."""
    out = {}
    for name, value in names_values:
        if len(out) >= limit:
            break
        if type(name) is not str or name.startswith("@") or name.startswith("__") or secret_name(name):
            continue
        try:
            facts = describe(value, environment)
        except Exception as error:  # a class whose very type facts raise
            facts = {"type": "?", "none": False, "repr": f"<unreadable: {type(error).__name__}>"}
        if facts is not None:
            out[name] = facts
    return out
