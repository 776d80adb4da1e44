"""What a failing exception knows beyond its message, for the runtime-facts capture
(smallfix_fact_capture.py; docs/runtime-facts.md): the attributes that say what failed, the
object a TypeError's call really called and its signature, the names the owner of a missing
attribute really has, torch.distributed's state and the installed versions.

The callee is found from the source of the call and the frame's names, resolved the way Python
would look them up but without running anything: names from the frame's locals, globals and
builtins, attributes through inspect.getattr_static, so that a property or a __getattr__ of the
repo's code is never run to find it (a module's own __getattr__, which lazy packages such as
torch use for their submodules, is the one exception).
"""

import ast
import importlib.metadata
import inspect
import linecache
import os
import platform
import re
import sys
import types

from smallfix_fact_values import BoundedRepr, class_name, is_torch_module, literal, safe_str

MAX_NAMES = 5000
# The function a TypeError names: "all_reduce() got an unexpected keyword argument 'opp'",
# "Reducer.__init__() missing 1 required positional argument: 'size'".
CALLED_NAME = re.compile(r"^([\w.<>]+)\(\) ")
MODULE_MESSAGE = re.compile(r"^module '([\w.]+)' has no attribute")
IMPORT_MESSAGE = re.compile(r"^cannot import name '(\w+)' from '([\w.]+)'")


def exception_attrs(error, environment):
    """The attributes of `error` that say what failed, as strings."""
    attrs = {}
    bounded = BoundedRepr(environment)

    def put(key, value):
        if value is not None:
            attrs[key] = value if type(value) is str and not environment.is_env_string(value) \
                else bounded.repr(value)[:200]

    if isinstance(error, AttributeError) and getattr(error, "name", None) is not None:
        put("name", error.name)
        put("obj_type", class_name(type(getattr(error, "obj", None))))
    elif isinstance(error, (KeyError, IndexError)) and error.args:
        put("key", bounded.repr(error.args[0])[:200])  # a repr: 'b' and b are different keys
    elif isinstance(error, ImportError):
        put("name", error.name)
        put("path", error.path)
        imported = IMPORT_MESSAGE.match(safe_str(error))
        put("import_name", imported.group(1) if imported else None)
    elif isinstance(error, NameError):
        put("name", getattr(error, "name", None))
    elif isinstance(error, OSError):
        put("errno", error.errno)
        put("filename", error.filename)
    try:  # an exception class's own fields (a rank, a size): scalars only
        own = object.__getattribute__(error, "__dict__")
        for key, value in list(own.items())[:16]:
            text = literal(value) if not environment.is_env_string(value) else None
            if type(key) is str and key not in attrs and text is not None:
                attrs[key] = value if type(value) is str else text
    except Exception:
        pass
    return attrs


def call_at(frame, lasti, lineno, message):
    """The ast.Call that raised at `lineno` of `frame`: the faulting instruction's own source
    span (co_positions) when it is a call, else the call on that line named by the message."""
    try:
        positions = list(frame.f_code.co_positions())
        start, end, col, end_col = positions[lasti // 2]
        lines = linecache.getlines(frame.f_code.co_filename)
        if None not in (start, end, col, end_col) and end <= len(lines):
            text = "".join(lines[start - 1:end]).encode()
            last = len("".join(lines[start - 1:end - 1]).encode())
            node = ast.parse(text[col:last + end_col].decode(), mode="eval").body
            if isinstance(node, ast.Call):
                return node
    except (SyntaxError, ValueError, IndexError, TypeError, AttributeError):  # no co_positions before 3.11
        pass
    return call_on_line(frame.f_code.co_filename, lineno, message)


def call_on_line(filename, lineno, message):
    try:
        tree = ast.parse("".join(linecache.getlines(filename)))
    except (SyntaxError, ValueError):
        return None
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and node.lineno <= lineno <= (node.end_lineno or node.lineno)]
    named = CALLED_NAME.match(message)
    if named:
        last = named.group(1).split(".")[-1]
        if last == "__init__":
            last = named.group(1).split(".")[-2] if "." in named.group(1) else last
        calls = [call for call in calls if callee_name(call.func) == last] or calls
    return min(calls, key=lambda c: (c.end_lineno or 0) - c.lineno, default=None)


def callee_name(node):
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def resolve(node, frame):
    """The object `node` (a name or a chain of attributes) names in `frame`, or None."""
    if isinstance(node, ast.Name):
        for scope in (frame.f_locals, frame.f_globals, frame.f_builtins):
            if node.id in scope:
                return scope[node.id]
        return None
    if isinstance(node, ast.Attribute):
        base = resolve(node.value, frame)
        return static_attr(base, node.attr) if base is not None else None
    return None


BOUND_SAFELY = (types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType,
                types.WrapperDescriptorType, types.ClassMethodDescriptorType, staticmethod,
                classmethod, type, types.ModuleType)


def static_attr(base, name):
    """getattr(base, name) where that runs none of the repo's code, else None."""
    is_module = issubclass(type(base), types.ModuleType)
    try:
        found = inspect.getattr_static(base, name)
    except AttributeError:
        found = None
        if not is_module:
            return None
    try:
        if found is None or is_module or isinstance(found, BOUND_SAFELY):
            return getattr(base, name)  # a module's attribute, or a descriptor of Python's own
    except Exception:
        return None
    return found if not hasattr(type(found), "__get__") else None


def qualified_name(target):
    function = target.__func__ if isinstance(target, types.MethodType) else target
    named = (type, types.FunctionType, types.BuiltinFunctionType)
    owner = function if isinstance(function, named) else type(function)  # a callable object
    module = getattr(owner, "__module__", None) or ""
    name = getattr(owner, "__qualname__", None) or getattr(owner, "__name__", "?")
    return f"{module}.{name}" if module and module != "builtins" else name


def callee_facts(callee, environment):
    # An nn.Module is called through its forward, whose signature is the one that matters.
    target = callee.forward if is_torch_module(type(callee)) else callee
    qualname = qualified_name(target)
    try:
        signature = inspect.signature(target)
    except (ValueError, TypeError):
        return {"qualname": qualname, "signature": "", "parameters": []}
    bounded = BoundedRepr(environment)
    parameters = []
    for parameter in signature.parameters.values():
        entry = {"name": parameter.name, "kind": parameter.kind.name,
                 "has_default": parameter.default is not inspect.Parameter.empty}
        if entry["has_default"]:
            entry["default"] = bounded.repr(parameter.default)[:120]
        parameters.append(entry)
    return {"qualname": qualname, "signature": str(signature)[:1000], "parameters": parameters}


def callee_of(frame, lasti, lineno, error, environment):
    """For a TypeError at a call in `frame`: the facts of the object called, or None."""
    call = call_at(frame, lasti, lineno, safe_str(error))
    callee = resolve(call.func, frame) if call is not None else None
    if callee is None or not callable(callee):
        return None
    try:
        facts = callee_facts(callee, environment)
    except Exception:
        return None
    # What the repo wrote: "dist.all_reduce".
    facts["expression"] = ast.unparse(call.func)[:200] if hasattr(ast, "unparse") else callee_name(call.func)
    return facts


def attribute_owner(error):
    """For an AttributeError, an ImportError of a name from a module, or a missing submodule (its
    parent package): the module, class or
    instance that lacked the name, and what it has. None for None itself (its lack of
    attributes says nothing) or when it is unknown."""
    if isinstance(error, ModuleNotFoundError):  # "torch._six": what torch has instead
        parent = (error.name or "").rpartition(".")[0]
        owner = sys.modules.get(parent) if parent else None
    elif isinstance(error, ImportError):
        imported = IMPORT_MESSAGE.match(safe_str(error))
        owner = sys.modules.get(imported.group(2)) if imported else None
    elif isinstance(error, AttributeError):
        owner = getattr(error, "obj", None) if getattr(error, "name", None) is not None else None
        if owner is None:
            named = MODULE_MESSAGE.match(safe_str(error))
            owner = sys.modules.get(named.group(1)) if named else None
    else:
        return None
    if owner is None:
        return None
    cls = type(owner)
    if issubclass(cls, types.ModuleType):
        kind, qualname, mro = "module", getattr(owner, "__name__", "?"), []
    elif issubclass(cls, type):
        kind, qualname, mro = "class", class_name(owner), [class_name(c) for c in owner.__mro__]
    else:
        kind, qualname, mro = "instance", class_name(cls), [class_name(c) for c in cls.__mro__]
    try:
        names = dir(owner)
    except Exception:  # an instance's own __dir__ raised: its class's names
        names = dir(cls)
    names = sorted(name for name in names if type(name) is str)[:MAX_NAMES]
    return {"type": kind, "qualname": qualname, "names": names, "mro": mro}


def distributed_state():
    dist = sys.modules.get("torch.distributed")  # only when the test imported it
    try:
        if dist is None or not dist.is_available() or not dist.is_initialized():
            return None
        return {"rank": dist.get_rank(), "world_size": dist.get_world_size(),
                "backend": str(dist.get_backend())}
    except Exception:
        return None


def versions(packages):
    """Python's version, torch's when it is imported, and the installed version of each
    top-level package in `packages` that is an installed distribution."""
    out = {"python": platform.python_version()}
    if "torch" in sys.modules:
        packages = set(packages) | {"torch"}
    for package in sorted(packages):
        if package in getattr(sys, "stdlib_module_names", ()) or package in out:
            continue
        try:
            out[package] = importlib.metadata.version(package)
        except Exception:  # an import name that is not its distribution's name
            version = getattr(sys.modules.get(package), "__version__", None)
            if type(version) is str:
                out[package] = version
    return out


def frame_package(frame, root):
    """The top-level package of a frame's module when it is installed (outside the repo)."""
    name = frame.f_globals.get("__name__")
    filename = os.path.realpath(frame.f_code.co_filename)
    if type(name) is not str or name == "__main__" or filename.startswith(root + os.sep):
        return None
    return name.split(".")[0]
