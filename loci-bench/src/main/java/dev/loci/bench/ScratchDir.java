package dev.loci.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A fresh subdirectory of the work directory, deleted with everything in it on close. */
record ScratchDir(Path path) implements AutoCloseable {
  static ScratchDir create(Path workDir, String prefix) {
    try {
      return new ScratchDir(Files.createTempDirectory(workDir, prefix));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> files = Files.walk(path)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
