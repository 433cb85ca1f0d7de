package dev.loci.langchain4j;

import dev.loci.Loci;
import dev.loci.client.LociApi;
import dev.loci.client.LociClient;
import dev.loci.server.Credential;
import dev.loci.server.Grant;
import dev.loci.server.LociServer;
import dev.loci.server.Role;
import dev.loci.server.ServerConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The {@link AssistantContract} over a real server, reached with a writer token for acme.*. */
class RemoteAssistantTest extends AssistantContract {
  private static final String TOKEN = "writer-token-0123456789";

  @TempDir Path dir;
  private LociServer server;
  private LociClient client;

  @BeforeEach
  void start() {
    Credential writer =
        new Credential(
            "agent", Credential.hashHex(TOKEN), Role.WRITER, List.of(Grant.of("acme.*")));
    server =
        LociServer.builder(Loci.builder().dataDir(dir))
            .config(
                ServerConfig.defaults()
                    .withHost("127.0.0.1")
                    .withPort(0)
                    .withCredentials(List.of(writer)))
            .drain(Duration.ofSeconds(5))
            .start();
    client =
        LociClient.builder(URI.create("http://127.0.0.1:" + server.port() + "/"))
            .token(TOKEN)
            .build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Override
  LociApi api() {
    return client;
  }
}
