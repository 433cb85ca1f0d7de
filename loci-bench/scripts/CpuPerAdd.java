import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.Traces;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * CPU per trace add on one thread, durability none: the work of one append (the caller's checks,
 * then the combiner's decide, journal write and apply, with no fsync and no handoff), measured as
 * the thread's and the process's CPU time, so that two builds can be compared on a machine that
 * other work keeps busy (wall-clock rates move with the load, CPU time much less). 200,000 adds
 * warm up, then WINDOWS windows of 100,000; prints the minimum and median per add. The records are
 * those of `loci bench journal`. Not a peer benchmark. Run from the repository root after building
 * the CLI, alternating builds:
 *
 * <pre>
 * java -Xmx3g -cp "loci-cli/target/loci.jar:loci-cli/target/lib/*" loci-bench/scripts/CpuPerAdd.java WORKDIR 7
 * </pre>
 */
public class CpuPerAdd {
  public static void main(String[] a) throws Exception {
    Path dir = Files.createTempDirectory(Path.of(a[0]), "cpu-per-add");
    int windows = Integer.parseInt(a[1]);
    int per = 100_000;
    String note =
        "the user asked for the quarterly summary again and prefers short answers with numbers first; "
            .repeat(2)
            .substring(0, 100);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    List<String> tags = List.of("bench");
    Namespace ns = Namespace.of("bench.journal");
    long i = 0;
    try (Loci loci =
        Loci.builder().dataDir(dir).durability(Durability.none()).snapshotAfter(0).open()) {
      Traces traces = loci.traces();
      for (int k = 0; k < 200_000; k++, i++) {
        traces.add(ns, "{\"note\":\"" + note + "\",\"i\":" + i + "}", tags);
      }
      double[] thread = new double[windows];
      double[] process = new double[windows];
      for (int w = 0; w < windows; w++) {
        System.gc();
        long t0 = threads.getCurrentThreadCpuTime();
        long p0 = os.getProcessCpuTime();
        for (int k = 0; k < per; k++, i++) {
          traces.add(ns, "{\"note\":\"" + note + "\",\"i\":" + i + "}", tags);
        }
        thread[w] = (threads.getCurrentThreadCpuTime() - t0) / 1000.0 / per;
        process[w] = (os.getProcessCpuTime() - p0) / 1000.0 / per;
      }
      Arrays.sort(thread);
      Arrays.sort(process);
      System.out.printf(
          Locale.ROOT,
          "thread CPU us/add min %.2f med %.2f | process CPU us/add min %.2f med %.2f%n",
          thread[0],
          thread[windows / 2],
          process[0],
          process[windows / 2]);
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
