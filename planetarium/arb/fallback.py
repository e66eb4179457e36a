"""placeholder"""
def fallback_reader(instance):
    return None
