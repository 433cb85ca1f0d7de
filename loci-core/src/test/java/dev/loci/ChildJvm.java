package dev.loci;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The two sides of a kill test: a writer {@code main} that runs in a child JVM and prints one line
 * per acknowledged write, and the parent that starts it, kills it with SIGKILL once enough lines
 * are out, and reads back the complete lines. Shared by every module's kill tests (through the
 * loci-core test jar).
 *
 * <p>The child's output goes to a file that the parent polls, so no read can block. The child stops
 * on its own when its standard input closes (the parent died) or after two minutes, so a broken
 * test cannot leave it running.
 */
public final class ChildJvm {
  private ChildJvm() {}

  // ----- the child's side

  /**
   * The child's standard output, flushed by {@link #print} only; and the watchdogs that end the
   * child when the parent is gone or after two minutes, with exit status {@code haltStatus}.
   */
  public static PrintStream start(int haltStatus) {
    daemon(
        "stdin-watchdog",
        () -> {
          try {
            while (System.in.read() >= 0) {
              // the parent never writes; EOF means it is gone
            }
          } catch (IOException e) {
            // the parent is gone
          }
          Runtime.getRuntime().halt(haltStatus);
        });
    daemon(
        "time-watchdog",
        () -> {
          sleep(120_000);
          Runtime.getRuntime().halt(haltStatus);
        });
    return new PrintStream(new FileOutputStream(FileDescriptor.out), false, UTF_8);
  }

  /** Prints one whole line and flushes it, so a line on the output is a promise kept. */
  public static void print(PrintStream out, String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }

  /** Starts a daemon thread. */
  public static void daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  /** Sleeps, keeping the interrupt flag if interrupted. */
  public static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ----- the parent's side

  /**
   * Starts {@code main} in a child JVM (this JVM's class path, {@code -Xmx256m}) with {@code args},
   * waits until it has printed {@code lines} complete lines, kills it with SIGKILL and returns
   * every complete line it printed before dying. Never waits longer than {@code timeoutSeconds} and
   * always kills the child; fails if the child dies first or does not die of the kill.
   */
  public static List<String> runAndKill(
      Path workDir, Class<?> main, int lines, long timeoutSeconds, String... args)
      throws IOException, InterruptedException {
    Path stdout = Files.createTempFile(workDir, "child", ".out");
    Path stderr = Files.createTempFile(workDir, "child", ".err");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(main.getName());
    command.addAll(List.of(args));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    Process child =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    try {
      while (completeLines(stdout) < lines) {
        if (!child.isAlive()) {
          throw new AssertionError(
              "child exited with status "
                  + child.exitValue()
                  + " before "
                  + lines
                  + " lines; output: "
                  + tail(stdout)
                  + "; stderr: "
                  + tail(stderr));
        }
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "child did not print " + lines + " lines in time; stderr: " + tail(stderr));
        }
        Thread.sleep(10);
      }
      child.destroyForcibly();
      assertThat(child.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS))
          .as("killed child is gone")
          .isTrue();
      if (System.getProperty("os.name", "").startsWith("Linux")) {
        assertThat(child.exitValue()).as("exit status of a SIGKILLed process").isEqualTo(137);
      }
    } finally {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
    String out = Files.readString(stdout, UTF_8);
    // only newline-terminated lines were printed whole
    String whole = out.substring(0, out.lastIndexOf('\n') + 1);
    return whole.isEmpty() ? List.of() : List.of(whole.split("\n"));
  }

  private static long completeLines(Path file) throws IOException {
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
