import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How far this disk overlaps fdatasync calls made at the same time on one file: for each thread
 * count, that many threads append records of the journal's size (1,200 bytes, about one round of
 * trace batches) to one file preallocated with zeros, as a journal segment is, each calling
 * {@code force(false)} (fdatasync) after its own write, for SECONDS; prints the calls completed per
 * second and their latency. One thread is the pattern of the engine's group commit (one fsync at a
 * time) and of SQLite's WAL (its writers take turns); more threads show whether a commit protocol
 * with fsyncs in flight at once would complete more of them. Not a peer benchmark; run it on an
 * otherwise idle machine, from the repository root:
 *
 * <pre>
 * java loci-bench/scripts/FsyncOverlap.java WORKDIR 1,2,4,8 2
 * </pre>
 */
public class FsyncOverlap {
  private static final int RECORD = 1200;

  public static void main(String[] a) throws Exception {
    Path file = Files.createTempFile(Files.createDirectories(Path.of(a[0])), "fsync-overlap", ".seg");
    long seconds = Long.parseLong(a[2]);
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
      for (int i = 0; i < 512; i++) {
        zeros.clear();
        ch.write(zeros, (long) i << 20);
      }
      ch.force(true);
      AtomicLong position = new AtomicLong();
      for (String t : a[1].split(",")) {
        run(ch, Integer.parseInt(t), seconds, position);
      }
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private static void run(FileChannel ch, int threads, long seconds, AtomicLong position)
      throws InterruptedException {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    long[][] latencies = new long[threads][];
    int[] counts = new int[threads];
    Thread[] workers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int me = t;
      latencies[t] = new long[1 << 20];
      workers[t] =
          new Thread(
              () -> {
                ByteBuffer record = ByteBuffer.allocate(RECORD);
                Arrays.fill(record.array(), (byte) 'x');
                try {
                  while (System.nanoTime() < end && counts[me] < latencies[me].length) {
                    record.clear();
                    long start = System.nanoTime();
                    ch.write(record, position.getAndAdd(RECORD) % (500L << 20));
                    ch.force(false);
                    latencies[me][counts[me]++] = System.nanoTime() - start;
                  }
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      workers[t].start();
    }
    for (Thread w : workers) {
      w.join();
    }
    long[] all = new long[Arrays.stream(counts).sum()];
    int at = 0;
    for (int t = 0; t < threads; t++) {
      System.arraycopy(latencies[t], 0, all, at, counts[t]);
      at += counts[t];
    }
    Arrays.sort(all);
    System.out.printf(
        Locale.ROOT,
        "%d thread(s): %,.0f write+fdatasync/s; latency p10 %d us, p50 %d us, p90 %d us, p99 %d us%n",
        threads,
        all.length / (double) seconds,
        all[all.length / 10] / 1000,
        all[all.length / 2] / 1000,
        all[all.length * 9 / 10] / 1000,
        all[all.length * 99 / 100] / 1000);
  }
}
