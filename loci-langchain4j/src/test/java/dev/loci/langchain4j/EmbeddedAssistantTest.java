package dev.loci.langchain4j;

import dev.loci.client.EmbeddedLoci;
import dev.loci.client.LociApi;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The {@link AssistantContract} over a Loci instance in this JVM. */
class EmbeddedAssistantTest extends AssistantContract {
  @TempDir Path dir;
  private EmbeddedLoci api;

  @BeforeEach
  void open() {
    api = EmbeddedLoci.open(dir);
  }

  @AfterEach
  void close() {
    api.close();
  }

  @Override
  LociApi api() {
    return api;
  }
}
