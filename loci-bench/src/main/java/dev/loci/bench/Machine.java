package dev.loci.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The machine a benchmark report was measured on.
 *
 * @param cores available processors
 * @param cpu the CPU model from {@code /proc/cpuinfo}, or {@code unknown}
 * @param jdk the Java runtime version and VM
 * @param os operating system name, version and architecture
 * @param fileSystem type and name of the file store holding the work directory
 * @param maxHeapBytes the JVM's maximum heap
 * @param loadAverage the system load average over the last minute when the run started, or a
 *     negative number if the platform does not report it; other work on the machine shows here
 * @param date when the run started
 */
public record Machine(
    int cores,
    String cpu,
    String jdk,
    String os,
    String fileSystem,
    long maxHeapBytes,
    double loadAverage,
    Instant date) {
  /** Checks every field is present. */
  public Machine {
    Objects.requireNonNull(cpu, "cpu");
    Objects.requireNonNull(jdk, "jdk");
    Objects.requireNonNull(os, "os");
    Objects.requireNonNull(fileSystem, "fileSystem");
    Objects.requireNonNull(date, "date");
  }

  /** Describes this machine, with the file store of {@code workDir} (which must exist). */
  public static Machine describe(Path workDir) {
    String fs;
    try {
      FileStore store = Files.getFileStore(workDir);
      fs = store.type() + " on " + store.name();
    } catch (IOException e) {
      fs = "unknown (" + e.getMessage() + ")";
    }
    return new Machine(
        Runtime.getRuntime().availableProcessors(),
        cpuModel(),
        System.getProperty("java.runtime.version", System.getProperty("java.version"))
            + " "
            + System.getProperty("java.vm.name", ""),
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"),
        fs,
        Runtime.getRuntime().maxMemory(),
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        Instant.now().truncatedTo(ChronoUnit.SECONDS));
  }

  /**
   * Starts a benchmark run: creates {@code workDir} if missing, describes this machine with it, and
   * logs a header naming {@code benchmark}, with a warning if the work directory is on tmpfs.
   *
   * @throws UncheckedIOException if the work directory cannot be created
   */
  static Machine start(String benchmark, Path workDir, PrintStream log) {
    try {
      Files.createDirectories(workDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Machine machine = describe(workDir);
    log.println(benchmark + " benchmark on " + machine.cores + " cores, " + machine.fileSystem);
    if (machine.fileSystem.startsWith("tmpfs")) {
      log.println("warning: the work directory is on tmpfs, where fsync costs nothing");
    }
    return machine;
  }

  /** One Markdown sentence naming every field, ending in a blank line. */
  public String toMarkdown() {
    return "Machine: "
        + cores
        + " cores ("
        + cpu
        + "), "
        + os
        + ", JDK "
        + jdk
        + ", max heap "
        + Format.mib(maxHeapBytes)
        + ", data on "
        + fileSystem
        + ", load average "
        + Format.fixed(loadAverage, 2)
        + " at start, "
        + date
        + ".\n\n";
  }

  /** One JSON object with every field, in snake_case. */
  public String toJson() {
    return "{\"cores\": "
        + cores
        + ", \"cpu\": "
        + Format.quote(cpu)
        + ", \"jdk\": "
        + Format.quote(jdk)
        + ", \"os\": "
        + Format.quote(os)
        + ", \"file_system\": "
        + Format.quote(fileSystem)
        + ", \"max_heap_bytes\": "
        + maxHeapBytes
        + ", \"load_average\": "
        + Format.number(loadAverage)
        + ", \"date\": "
        + Format.quote(date.toString())
        + "}";
  }

  private static String cpuModel() {
    Path info = Path.of("/proc/cpuinfo");
    if (!Files.isReadable(info)) {
      return "unknown";
    }
    try (Stream<String> lines = Files.lines(info, StandardCharsets.UTF_8)) {
      return lines
          .filter(l -> l.startsWith("model name"))
          .map(l -> l.substring(l.indexOf(':') + 1).trim())
          .findFirst()
          .orElse("unknown");
    } catch (IOException | UncheckedIOException e) {
      return "unknown";
    }
  }
}
