package dev.loci.client;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The {@link LociApiContract} over an instance in this JVM. */
class EmbeddedLociTest extends LociApiContract {
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
