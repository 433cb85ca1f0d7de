import com.sun.nio.file.ExtendedOpenOption;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which way of making a write durable this disk does fastest: one thread appends records of
 * RECORD bytes (7,500 is about a round of 8 writers' trace batches) to a file preallocated with
 * zeros, as a journal segment is, for SECONDS each way, three rounds alternated: {@code write} then
 * {@code fdatasync} (the journal's way), a channel opened with {@code O_DSYNC}, and {@code O_DIRECT
 * | O_DSYNC} with 4 KiB-aligned blocks (the last partial block written again each time). Prints
 * writes per second and their p50 / p99 latency. Not a peer benchmark; run it on an idle machine,
 * from the repository root:
 *
 * <pre>
 * java loci-bench/scripts/SyncMethods.java WORKDIR 7500 3
 * </pre>
 *
 * See docs/benchmarks.md, issue 20 item 1 ("sync methods compared").
 */
public class SyncMethods {
  public static void main(String[] a) throws Exception {
    Path dir = Files.createDirectories(Path.of(a[0]));
    int record = Integer.parseInt(a[1]);
    double seconds = Double.parseDouble(a[2]);
    for (int round = 0; round < 3; round++) {
      for (String mode : new String[] {"fdatasync", "dsync", "direct-dsync"}) {
        Path file = dir.resolve("f-" + mode + ".seg");
        Files.deleteIfExists(file);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          ByteBuffer zeros = ByteBuffer.allocate(1 << 20);
          for (int i = 0; i < 256; i++) { zeros.clear(); ch.write(zeros, (long) i << 20); }
          ch.force(true);
        }
        Set<OpenOption> opts = new HashSet<>(List.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
        if (!mode.equals("fdatasync")) opts.add(StandardOpenOption.DSYNC);
        boolean direct = mode.startsWith("direct");
        if (direct) opts.add(ExtendedOpenOption.DIRECT);
        try (FileChannel ch = FileChannel.open(file, opts)) {
          ByteBuffer rec = direct ? ByteBuffer.allocateDirect(record + 8192 + 4096).alignedSlice(4096) : ByteBuffer.allocate(record);
          long pos = 0; int n = 0;
          long[] lat = new long[1 << 20];
          long end = System.nanoTime() + (long) (seconds * 1e9);
          while (System.nanoTime() < end && pos + record + 8192 < (256L << 20)) {
            long t0 = System.nanoTime();
            if (direct) {
              long start = pos & ~4095L; long stop = (pos + record + 4095) & ~4095L;
              rec.clear(); rec.limit((int) (stop - start));
              ch.write(rec, start);
            } else {
              rec.clear(); ch.write(rec, pos);
              if (mode.equals("fdatasync")) ch.force(false);
            }
            pos += record;
            lat[n++] = System.nanoTime() - t0;
          }
          long[] l = Arrays.copyOf(lat, n); Arrays.sort(l);
          System.out.printf("%-13s record %5d: %7.0f/s p50 %4d us p99 %5d us%n", mode, record, n / seconds, l[n / 2] / 1000, l[(int) (n * 0.99)] / 1000);
        }
        Files.deleteIfExists(file);
      }
    }
  }
}
