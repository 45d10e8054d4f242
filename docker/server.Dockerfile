# syntax=docker/dockerfile:1
# The OpenSDRS management server. Build from the repository root:
#   docker build -f docker/server.Dockerfile -t opensdrs/server .
FROM eclipse-temurin:17.0.15_6-jdk-jammy AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -pl server -am package -DskipTests

FROM eclipse-temurin:17.0.15_6-jre-jammy
RUN groupadd --system --gid 10001 sdrs && useradd --system --uid 10001 --gid sdrs --home-dir /var/lib/sdrs sdrs \
    && mkdir -p /var/lib/sdrs && chown 10001:10001 /var/lib/sdrs
COPY --from=build /src/server/target/sdrs-server.jar /tmp/sdrs-server.jar
# The jar extracted, with an AppCDS archive of the classes a start loads (a training run that stops
# once the context is refreshed, on a scratch H2): the start after a crash (B9, `sdrs bench b9`)
# spends most of its time loading and linking classes, and the archive halves it.
RUN java -Djarmode=tools -jar /tmp/sdrs-server.jar extract --destination /opt/sdrs \
    && java -XX:ArchiveClassesAtExit=/opt/sdrs/sdrs-server.jsa -Dspring.context.exit=onRefresh \
       -jar /opt/sdrs/sdrs-server.jar --server.port=0 --sdrs.grpc.port=0 --sdrs.data-dir=/tmp/cds-training \
    && rm -rf /tmp/sdrs-server.jar /tmp/cds-training
USER 10001:10001
WORKDIR /var/lib/sdrs
# 8443: REST API, plugin UI and manifest (HTTPS once SERVER_SSL_* is configured, see
# README.md); 9443: gRPC for host agents.
EXPOSE 8443 9443
ENV SDRS_DATA_DIR=/var/lib/sdrs \
    SERVER_PORT=8443 \
    SDRS_GRPC_PORT=9443
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:SharedArchiveFile=/opt/sdrs/sdrs-server.jsa", "-jar", "/opt/sdrs/sdrs-server.jar"]
