package dev.loci.internal;

import dev.loci.StorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a data directory, so that two processes (or two instances in one process)
 * never append to the same journal. The operating system releases it when the process dies.
 */
public final class DataDirLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock of {@code dataDir}.
   *
   * @throws StorageException if another process or instance holds it
   */
  public static DataDirLock acquire(Path dataDir) {
    Path file = dataDir.resolve("lock");
    FileChannel ch = null;
    try {
      ch =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        ch.close();
        throw new StorageException(
            "data directory "
                + dataDir
                + " is in use by another Loci instance; stop it or use another --data directory");
      }
      ch.truncate(0);
      ch.write(
          ByteBuffer.wrap(
              ("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)),
          0);
      return new DataDirLock(ch, lock);
    } catch (IOException e) {
      if (ch != null) {
        try {
          ch.close();
        } catch (IOException cleanup) {
          e.addSuppressed(cleanup);
        }
      }
      throw new StorageException(
          "cannot lock data directory " + dataDir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw new StorageException("cannot release data directory lock: " + e.getMessage(), e);
    }
  }
}
