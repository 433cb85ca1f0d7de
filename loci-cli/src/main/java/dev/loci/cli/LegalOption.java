package dev.loci.cli;

import dev.loci.LegalCapability;
import dev.loci.NamespaceScope;
import dev.loci.server.ConfigFile;
import dev.loci.server.Credential;
import dev.loci.server.Role;
import dev.loci.server.ServerConfig;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The {@code --legal-token} option: reads of superseded versions (history, version chains) need the
 * legal-tier capability, which the command line grants only to a token of {@code loci.toml} with
 * the {@code legal} role whose namespaces cover the read. The capability's holder, recorded in the
 * journal with every such read, is that token's id; a name typed on the command line proves nothing
 * and is not accepted.
 */
final class LegalOption {
  @Option(
      names = "--legal-token",
      paramLabel = "TOKEN",
      defaultValue = "${env:LOCI_LEGAL_TOKEN}",
      description =
          "A token with the legal role from loci.toml (default: the LOCI_LEGAL_TOKEN environment"
              + " variable). Required to read superseded versions; its id is recorded with the"
              + " read.")
  String token;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "Where the legal token is configured (default: loci.toml in the data directory).")
  Optional<Path> config = Optional.empty();

  /** Whether a legal token was given. */
  boolean given() {
    return token != null && !token.isBlank();
  }

  /**
   * The capability of the given token for {@code scope}.
   *
   * @throws picocli.CommandLine.ParameterException (exit 2) naming {@code --legal-token} if no
   *     token was given, or it is not a legal token of the configuration that covers {@code scope}
   */
  LegalCapability capability(LociCommand command, NamespaceScope scope, String why) {
    return capability(
        command,
        Optional.of(scope),
        why + " returns superseded versions, which may carry personal data");
  }

  /**
   * The capability of the given token, which must cover {@code scope} when present; {@code why}
   * says what needs it, in the error when no token was given.
   */
  LegalCapability capability(LociCommand command, Optional<NamespaceScope> scope, String why) {
    if (!given()) {
      throw command.usageError(
          why + ": pass --legal-token (or LOCI_LEGAL_TOKEN) with a token of the legal role");
    }
    Path file = config.orElse(command.main().dataDir().resolve(ConfigFile.NAME));
    ServerConfig cfg = ConfigFile.load(file);
    byte[] presented = Credential.hash(token);
    for (Credential c : cfg.credentials()) {
      if (MessageDigest.isEqual(presented, HexFormat.of().parseHex(c.sha256()))) {
        if (c.role() != Role.LEGAL) {
          throw command.usageError(
              "--legal-token: token "
                  + c.id()
                  + " has the "
                  + c.role().label()
                  + " role, not legal");
        }
        if (scope.isPresent() && !c.covers(scope.get())) {
          throw command.usageError(
              "--legal-token: token " + c.id() + " does not cover namespace " + scope.get());
        }
        return new LegalCapability(c.id());
      }
    }
    throw command.usageError("--legal-token: not a token of " + file);
  }
}
