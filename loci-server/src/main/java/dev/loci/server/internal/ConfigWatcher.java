package dev.loci.server.internal;

import dev.loci.server.ConfigException;
import dev.loci.server.ConfigFile;
import dev.loci.server.Credential;
import dev.loci.server.ServerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a running server's credentials in step with its {@code loci.toml}: the file is checked on a
 * fixed interval, and when its bytes change its {@code [[tokens]]} replace the ones in force, so
 * {@code loci token create} and {@code loci token revoke} take effect without a restart.
 *
 * <p>Only tokens are reloaded. Other changes (address, allowlist, limits) are reported in the log
 * and wait for a restart. A file that does not parse, or that would leave a server that had
 * credentials with none, is refused with a log line naming the problem, and the credentials in
 * force stay. Thread-safe.
 */
public final class ConfigWatcher implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("dev.loci.server");

  /** What one check did. */
  public enum Outcome {
    /** The file's bytes are as last seen. */
    UNCHANGED,
    /** The file changed and its tokens are now in force. */
    RELOADED,
    /** The file changed but could not be used; the tokens in force stay. */
    REFUSED
  }

  private final Path file;
  private final HttpPipeline pipeline;
  private final ScheduledExecutorService timer;
  private ServerConfig lastGood;
  private byte[] lastDigest;

  private ConfigWatcher(Path file, HttpPipeline pipeline, Duration every) {
    this.file = file;
    this.pipeline = pipeline;
    this.lastDigest = digest(file);
    this.lastGood = ConfigFile.load(file);
    if (every.isZero()) {
      this.timer = null;
      return;
    }
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "loci-config-watch");
              t.setDaemon(true);
              return t;
            });
    long ms = Math.max(1, every.toMillis());
    timer.scheduleWithFixedDelay(this::checkLogged, ms, ms, TimeUnit.MILLISECONDS);
  }

  /**
   * Starts watching {@code file} for {@code pipeline}, checking every {@code every}; {@link
   * Duration#ZERO} checks only when {@link #check()} is called.
   */
  public static ConfigWatcher start(Path file, HttpPipeline pipeline, Duration every) {
    return new ConfigWatcher(file, pipeline, every);
  }

  private void checkLogged() {
    try {
      check();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "checking " + file + " failed", e);
    }
  }

  /** Checks the file now. */
  public synchronized Outcome check() {
    byte[] now = digest(file);
    if (Arrays.equals(now, lastDigest)) {
      return Outcome.UNCHANGED;
    }
    ServerConfig loaded;
    try {
      loaded = ConfigFile.load(file); // may rewrite plain-text tokens as hashes
    } catch (ConfigException e) {
      lastDigest = now;
      LOG.log(
          System.Logger.Level.WARNING,
          "not reloading credentials: " + e.getMessage() + "; the credentials in force stay");
      return Outcome.REFUSED;
    }
    lastDigest = digest(file);
    List<Credential> credentials = loaded.credentials();
    try {
      pipeline.credentials(credentials);
    } catch (IllegalArgumentException e) {
      LOG.log(System.Logger.Level.WARNING, "not reloading credentials from " + file + ": " + e);
      return Outcome.REFUSED;
    }
    if (!withoutTokens(loaded).equals(withoutTokens(lastGood))) {
      LOG.log(
          System.Logger.Level.WARNING,
          file
              + " changed outside [[tokens]]; only tokens are reloaded while running, the rest"
              + " takes effect on restart");
    }
    lastGood = loaded;
    LOG.log(
        System.Logger.Level.INFO, "reloaded " + credentials.size() + " credential(s) from " + file);
    return Outcome.RELOADED;
  }

  private static ServerConfig withoutTokens(ServerConfig c) {
    return c.withCredentials(List.of());
  }

  private static byte[] digest(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      bytes = new byte[0];
    } catch (IOException e) {
      throw new ConfigException(file, "cannot read: " + e.getMessage());
    }
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Stops watching. Idempotent. */
  @Override
  public void close() {
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
