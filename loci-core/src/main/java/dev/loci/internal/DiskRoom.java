package dev.loci.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Why a {@link FileJournal}'s last append failed for want of space (or of a working disk), until an
 * append succeeds or the file system has room for it again. Thread-safe: both fields are volatile
 * (the reason is written first and read first).
 */
final class DiskRoom {
  private final Path dir;
  private volatile String full; // why the last append failed for want of space, until it has room
  private volatile long fullNeeds; // bytes the failed append wanted

  DiskRoom(Path dir) {
    this.dir = dir;
  }

  /**
   * Records that an append failed ({@code why}) wanting {@code needs} bytes; 0 after a failed
   * fsync, which no free space shows to be mended.
   */
  void refused(String why, long needs) {
    full = why;
    fullNeeds = needs;
  }

  /** Records that an append succeeded. */
  void clear() {
    full = null;
  }

  /** Why appends are refused for want of space, unless the file system now has room. */
  Optional<String> why() {
    String why = full;
    if (why != null && roomFor(fullNeeds)) {
      full = null;
      return Optional.empty();
    }
    return Optional.ofNullable(why);
  }

  /** Whether the journal's file system has room for {@code bytes} and a margin. */
  private boolean roomFor(long bytes) {
    if (bytes <= 0) {
      return false; // an fsync failed: only a write that succeeds shows the disk is well again
    }
    try {
      return Files.getFileStore(dir).getUsableSpace() >= bytes + (64 << 10);
    } catch (IOException e) {
      return false;
    }
  }
}
