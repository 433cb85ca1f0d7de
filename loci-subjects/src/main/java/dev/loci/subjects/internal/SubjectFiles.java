package dev.loci.subjects.internal;

import dev.loci.internal.Directories;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Appends lines to the subjects' audit files and forces them, many files at once: each file is
 * opened (created if new), appended to, forced if asked and closed by one task of a pool of up to
 * {@value #THREADS} threads. Most of the time of writing a thousand files goes to waiting on the
 * file system (creating a file, or its first write, waits for the ext4 journal whenever another
 * process's fsync is committing it; a fsync waits for its commit), not to the CPU; one file after
 * another, a checkpoint of 1,000 new subject files took 1.2-5.5 s under load average 13-24, in
 * parallel about 0.4 s. A file created is made durable in its directory too (the directory is
 * forced after the files when asked to force). Thread-safe (keeps no state but the directory).
 */
final class SubjectFiles {
  private static final int THREADS = 16;

  private final Path dir;

  SubjectFiles(Path dir) {
    this.dir = dir;
  }

  /**
   * Appends to each subject's file the bytes {@code lines} holds for it (whole lines), creating the
   * file if it has none, and with {@code force} forces those files and the files of {@code
   * alsoForce} (written before, not yet forced) and then the directory. Returns once every file is
   * written (and forced); on a failure some may be written: the caller keeps the lines until it
   * tries again.
   *
   * @throws IOException the first failure, after every task has ended
   */
  void append(Map<String, byte[]> lines, boolean force, Set<String> alsoForce) throws IOException {
    List<String> refs = new ArrayList<>(lines.keySet());
    if (force) {
      for (String ref : alsoForce) {
        if (!lines.containsKey(ref)) {
          refs.add(ref);
        }
      }
    }
    if (refs.isEmpty()) {
      return;
    }
    Directories.create(dir);
    AtomicBoolean created = new AtomicBoolean();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(THREADS, refs.size()),
            r -> {
              Thread t = new Thread(r, "loci-audit-files");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<?>> done = new ArrayList<>(refs.size());
      for (String ref : refs) {
        byte[] bytes = lines.get(ref);
        done.add(
            pool.submit(
                () -> {
                  if (one(ref, bytes, force)) {
                    created.set(true);
                  }
                  return null;
                }));
      }
      IOException failed = null;
      for (Future<?> f : done) {
        try {
          f.get();
        } catch (ExecutionException e) {
          IOException io =
              e.getCause() instanceof IOException x ? x : new IOException(e.getCause());
          if (failed == null) {
            failed = io;
          } else {
            failed.addSuppressed(io);
          }
        }
      }
      if (failed != null) {
        throw failed;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted writing the audit logs");
    } finally {
      pool.shutdown();
    }
    if (force && created.get()) {
      Directories.sync(dir);
    }
  }

  /** Appends {@code bytes} (if any) to {@code ref}'s file and forces it; true if it was created. */
  private boolean one(String ref, byte[] bytes, boolean force) throws IOException {
    Path f = AuditLog.file(dir, ref);
    boolean isNew = bytes != null && !Files.exists(f);
    try (FileChannel ch =
        FileChannel.open(
            f, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      if (bytes != null) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
          ch.write(b);
        }
      }
      if (force) {
        ch.force(false);
      }
    }
    return isNew;
  }
}
