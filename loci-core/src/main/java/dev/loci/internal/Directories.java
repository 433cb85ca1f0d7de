package dev.loci.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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

  /**
   * Replaces {@code file} with {@code bytes} so that a crash leaves either the old or the new
   * content: writes a temporary file beside it ({@code <name><tmpSuffix>}), fsyncs it, renames it
   * over {@code file} (atomically where the file system can) and fsyncs the directory.
   */
  public static void replace(Path file, byte[] bytes, String tmpSuffix) throws IOException {
    Path abs = file.toAbsolutePath();
    Path dir = abs.getParent();
    create(dir);
    Path tmp = dir.resolve(abs.getFileName() + tmpSuffix);
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ByteBuffer data = ByteBuffer.wrap(bytes);
      while (data.hasRemaining()) {
        ch.write(data);
      }
      ch.force(true);
    }
    try {
      Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
    }
    sync(dir);
  }
}
