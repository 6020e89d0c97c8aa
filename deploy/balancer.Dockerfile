# The balancer of deploy/compose.yaml: Debian 12's nginx (1.22), the very
# package tests/deploy/test_nginx.py runs `nginx -t` with and plays through,
# with deploy/nginx.conf. Build from the repository root:
#   docker build -f deploy/balancer.Dockerfile -t throneroom-balancer deploy
FROM docker.io/library/debian:12.9-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx=1.22.1-9+deb12u* \
 && rm -rf /var/lib/apt/lists/* \
 && ln -sf /dev/stdout /var/log/nginx/access.log \
 && ln -sf /dev/stderr /var/log/nginx/error.log
COPY nginx.conf /etc/nginx/nginx.conf
EXPOSE 50051 8080
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD ["nginx", "-t", "-q"]
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
