package dev.loci.langchain4j;

import dev.loci.client.LociApi;
import dev.loci.client.LociClient;
import dev.loci.client.TestServer;
import dev.loci.server.Role;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The {@link AssistantContract} over a real server, reached with a writer token for acme.*. */
class RemoteAssistantTest extends AssistantContract {
  private static final String TOKEN = "writer-token-0123456789";

  @TempDir Path dir;
  private TestServer server;
  private LociClient client;

  @BeforeEach
  void start() {
    server = TestServer.start(dir, TestServer.credential("agent", TOKEN, Role.WRITER, "acme.*"));
    client = server.client(TOKEN);
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
