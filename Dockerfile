FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /srv/campground

COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY engine ./engine
COPY migrations ./migrations
COPY static ./static
RUN pip install --no-cache-dir .

RUN useradd --create-home campground
USER campground

EXPOSE 8000
CMD ["campground", "serve", "--host", "0.0.0.0", "--port", "8000"]
