# syntax=docker/dockerfile:1
# Build: docker build -t poimen-memory .      Run: see docker-compose.yml and docs/docker-compose.md

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
RUN --mount=type=cache,target=/root/.m2 mvn -B -q dependency:go-offline
COPY src src
RUN --mount=type=cache,target=/root/.m2 mvn -B -q -DskipTests package \
 && cp target/poimen-memory-*.jar /src/app.jar \
 && java -Djarmode=tools -jar /src/app.jar extract --layers --launcher --destination /src/layers

FROM eclipse-temurin:17-jre
# non-root: fixed uid/gid so volume ownership and the k8s securityContext (runAsUser 10001) agree
RUN groupadd --system --gid 10001 poimen \
 && useradd --system --uid 10001 --gid poimen --home-dir /app --shell /usr/sbin/nologin poimen
WORKDIR /app
COPY --from=build /src/layers/dependencies/ ./
COPY --from=build /src/layers/spring-boot-loader/ ./
COPY --from=build /src/layers/snapshot-dependencies/ ./
COPY --from=build /src/layers/application/ ./
# routes/ and policies/ are read from disk at run time (poimen.routes-dir, poimen.policies.dir): the copies
# here are the defaults; mount over them (compose) or use the ConfigMaps (k8s) to change them without a rebuild
COPY routes routes
COPY policies policies
RUN mkdir -p /app/data /data/vault && chown -R poimen:poimen /app/data /data/vault
USER 10001:10001
ENV SPRING_PROFILES_ACTIVE=prod \
    POIMEN_VAULT_PATH=/data/vault \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=70 -XX:+ExitOnOutOfMemoryError"
EXPOSE 8080 9090
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
CMD ["serve"]
