"""A drive's URLs: public pages, the manager's page and the table's phone page (by its secret code)."""

from django.urls import path

from drives import views

app_name = "drives"

urlpatterns = [
    path("drives/", views.drive_list, name="list"),
    path("drives/<int:pk>/", views.drive_detail, name="detail"),
    path("drives/<int:pk>/nights/<int:number>/", views.night_detail, name="night"),
    path("drives/<int:pk>/manage/", views.drive_manage, name="manage"),
    path("drives/table/<str:code>/", views.table_enter, name="table"),
]
