# klawerjas-league image: the web server (gunicorn), the Celery worker and beat all run from it.
FROM python:3.13-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
# WeasyPrint's Pango and the font the PDFs embed (plumbing.documents; scripts/ensure-pdf-tools; also the preview
# images' font, plumbing/share_image.py); the scheduled
# backup (Celery worker) runs scripts/backup: pg_dump (Debian's client is newer than the database, as pg_dump needs)
# and age to encrypt it.
RUN apt-get update && apt-get install -y --no-install-recommends libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core \
    age postgresql-client \
    && rm -rf /var/lib/apt/lists/*
COPY requirements.txt .
RUN pip install -r requirements.txt
COPY . .
RUN SECRET_KEY=collectstatic-only DEBUG=0 python manage.py collectstatic --noinput
RUN useradd --system --home /app klawerjas && chown -R klawerjas /app
USER klawerjas
EXPOSE 8000
CMD ["gunicorn", "klawerjas_league.wsgi", "--config", "gunicorn.conf.py"]
