"""The union office's pages: setting up a union, its clubs, people and invitations, its settings and its
registry (issue 33). Officials' pages are under /office/unions/<id>/; an invitation's link is /invitations/<token>/."""


app_name = "office"

urlpatterns: list = []
