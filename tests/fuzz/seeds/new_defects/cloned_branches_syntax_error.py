if c:
    f()
elif d:
    g()
#----
if c:
    f()
elif d:
    f()
else
