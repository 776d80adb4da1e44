import pkg
from pkg import initialize

engine, _ = initialize(None, {})
wrapped = pkg.Engine(None, {})
wrapped.train_batch([])
