def built(): pass
