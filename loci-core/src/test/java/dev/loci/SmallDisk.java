package dev.loci;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real small file system for full-disk tests: a tmpfs of a given size mounted under a test's
 * directory. Mounting needs root (as on the CI machine); elsewhere the test is skipped and says
 * why. Shared by every module's full-disk tests (through the loci-core test jar).
 */
public final class SmallDisk {
  private SmallDisk() {}

  /**
   * Mounts a tmpfs of {@code size} (as mount's {@code size=} option: {@code 1m}, {@code 12m}) at
   * {@code dir}, creating it; skips the calling test if that is not allowed here.
   */
  public static Path mount(Path dir, String size) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Process p =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString())
            .redirectErrorStream(true)
            .start();
    boolean done = p.waitFor(10, TimeUnit.SECONDS);
    assumeTrue(done && p.exitValue() == 0, "cannot mount a small tmpfs here (needs root)");
    return dir;
  }

  /** Unmounts what {@link #mount} mounted at {@code dir} (lazily: open files may remain). */
  public static void unmount(Path dir) throws IOException, InterruptedException {
    new ProcessBuilder("umount", "-l", dir.toString()).start().waitFor(10, TimeUnit.SECONDS);
  }
}
