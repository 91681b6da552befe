# klawerjas-league image: the web server (gunicorn), the Celery worker and beat all run from it.
FROM python:3.13-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
# DejaVu Sans for the shared pages' preview images (klawerjas_league/share_image.py; scripts/ensure-fonts-dejavu).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
RUN SECRET_KEY=collectstatic-only DEBUG=0 python manage.py collectstatic --noinput
RUN useradd --system --home /app klawerjas && chown -R klawerjas /app
USER klawerjas
EXPOSE 8000
CMD ["gunicorn", "klawerjas_league.wsgi", "--config", "gunicorn.conf.py"]
