"""Signing in: two-step sign-in (django-otp), API tokens (django-rest-knox) and sign-in throttling (django-axes).

Above the registry (a union may require two-step of its officials and referees, ``clubs.Union``), below every
page that asks who is signed in. It has no models of its own.
"""
