package dev.loci.server;

import dev.loci.LociException;
import java.nio.file.Path;

/**
 * The server configuration cannot be used: {@code loci.toml} does not parse, holds a wrong value,
 * or asks for something unsafe. The operator must fix it; the message says where and how.
 */
public class ConfigException extends LociException {
  private static final long serialVersionUID = 1L;

  /** Creates an exception about {@code file}; the message starts with the file name. */
  public ConfigException(Path file, String message) {
    super(file + ": " + message);
  }

  /** Creates an exception that is not about one file, such as an unsafe bind address. */
  public ConfigException(String message) {
    super(message);
  }
}
