from django.http import HttpResponse


def standings(request):
    return HttpResponse("DM Lag")
