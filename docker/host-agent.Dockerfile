# syntax=docker/dockerfile:1
# The OpenSDRS host agent (one per ESX host). Build from the repository root:
#   docker build -f docker/host-agent.Dockerfile -t opensdrs/host-agent .
FROM eclipse-temurin:17.0.15_6-jdk-jammy AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -pl host-agent -am package -DskipTests

FROM eclipse-temurin:17.0.15_6-jre-jammy
RUN groupadd --system --gid 10001 sdrs && useradd --system --uid 10001 --gid sdrs sdrs
COPY --from=build /src/host-agent/target/sdrs-host-agent.jar /opt/sdrs/sdrs-host-agent.jar
COPY --from=build /src/host-agent/target/lib /opt/sdrs/lib
# The agent writes its heartbeat block and reads the injector's file on every datastore
# it is given (--datastore DIR): mount the datastores read-write under /datastores.
USER 10001:10001
ENTRYPOINT ["java", "-jar", "/opt/sdrs/sdrs-host-agent.jar"]
