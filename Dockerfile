FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
RUN pip install --no-cache-dir .
COPY . .
RUN DEBUG=false SECRET_KEY=build-only-$(head -c 48 /dev/urandom | base64) ALLOWED_HOSTS=build \
    python manage.py collectstatic --noinput
RUN useradd --create-home ubf && mkdir -p var/media && chown -R ubf var
USER ubf
EXPOSE 8000
CMD ["gunicorn", "ubf.wsgi", "--bind", "0.0.0.0:8000"]
