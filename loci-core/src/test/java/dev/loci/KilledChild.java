package dev.loci;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a writer's {@code main} in a child JVM on this test's class path and kills it with SIGKILL
 * ({@link Process#destroyForcibly()}) once it has printed enough lines: the shared harness of the
 * kill tests (journal, pathway, recall). The child prints {@code READY} once open, then one line
 * per acknowledged write, each printed only after the write returned. Its output goes to a file
 * that is polled, so no read can block; the child is always killed, and never waited for longer
 * than the timeout.
 */
public final class KilledChild {
  private KilledChild() {}

  /**
   * Starts {@code main} with {@code args} (and {@code -Xmx256m}) in a child JVM, waits until it has
   * printed {@code killAfter} lines after {@code READY}, kills it, and returns every complete line
   * it printed after {@code READY}, in order.
   *
   * @param scratch where the child's output files go
   * @throws AssertionError if the child exits or times out before {@code killAfter} lines, or if a
   *     SIGKILLed child on Linux does not report exit status 137
   */
  public static List<String> runAndKill(
      Path scratch, Class<?> main, List<String> args, int killAfter, long timeoutSeconds)
      throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path stdout = Files.createTempFile(scratch, "child", ".out");
    Path stderr = Files.createTempFile(scratch, "child", ".err");
    List<String> command = new ArrayList<>();
    command.add(java);
    command.add("-Xmx256m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(args);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    Process child =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    try {
      while (lines(stdout) < killAfter + 1) {
        if (!child.isAlive()) {
          throw new AssertionError(
              "child exited with status "
                  + child.exitValue()
                  + " before "
                  + killAfter
                  + " lines; output: "
                  + tail(stdout)
                  + "; stderr: "
                  + tail(stderr));
        }
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "child did not print " + killAfter + " lines in time; stderr: " + tail(stderr));
        }
        Thread.sleep(10);
      }
      child.destroyForcibly();
      if (!child.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        throw new AssertionError("killed child is still running");
      }
      if (System.getProperty("os.name", "").startsWith("Linux") && child.exitValue() != 137) {
        throw new AssertionError(
            "exit status of a SIGKILLed process: expected 137, found " + child.exitValue());
      }
    } finally {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
    String out = Files.readString(stdout, UTF_8);
    List<String> printed = new ArrayList<>();
    // only newline-terminated lines were printed whole
    for (String line : out.substring(0, out.lastIndexOf('\n') + 1).split("\n")) {
      if (!line.equals("READY")) {
        printed.add(line);
      }
    }
    return printed;
  }

  private static long lines(Path file) throws IOException {
    byte[] b = Files.readAllBytes(file);
    long n = 0;
    for (byte c : b) {
      if (c == '\n') {
        n++;
      }
    }
    return n;
  }

  private static String tail(Path file) throws IOException {
    String s = Files.readString(file, UTF_8);
    return s.length() > 2000 ? "..." + s.substring(s.length() - 2000) : s;
  }
}
