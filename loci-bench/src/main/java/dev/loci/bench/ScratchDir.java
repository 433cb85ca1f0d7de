package dev.loci.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A fresh subdirectory of a benchmark's work directory, deleted with everything in it on close. */
record ScratchDir(Path path) implements AutoCloseable {
  /**
   * Creates a new directory named {@code prefix} plus a unique suffix under {@code workDir}, which
   * is created if missing.
   */
  static ScratchDir create(Path workDir, String prefix) {
    try {
      Files.createDirectories(workDir);
      return new ScratchDir(Files.createTempDirectory(workDir, prefix));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The total size of the regular files under {@code dir}. */
  static long bytesUnder(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      long total = 0;
      for (Path p : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(p)) {
          total += Files.size(p);
        }
      }
      return total;
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
