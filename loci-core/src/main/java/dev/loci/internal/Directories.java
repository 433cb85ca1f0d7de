package dev.loci.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Directory creation and fsync, so that new and renamed files survive a power loss. */
public final class Directories {
  private static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase().startsWith("windows");

  private Directories() {}

  /** Creates {@code dir} and missing parents, fsyncing each parent that gained an entry. */
  public static void create(Path dir) throws IOException {
    Path abs = dir.toAbsolutePath();
    if (Files.isDirectory(abs)) {
      return;
    }
    Path parent = abs.getParent();
    if (parent != null) {
      create(parent);
    }
    Files.createDirectories(abs);
    if (parent != null) {
      sync(parent);
    }
  }

  /**
   * Fsyncs a directory so that entries created, renamed or deleted in it are durable. Windows
   * cannot open a directory for this and orders metadata itself, so there it does nothing.
   */
  public static void sync(Path dir) throws IOException {
    if (WINDOWS) {
      return;
    }
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }
}
