package io.trigrep.indexer.corpus;

import java.io.File;
import java.io.IOException;
import org.eclipse.jgit.errors.ConfigInvalidException;
import org.eclipse.jgit.lib.Config;
import org.eclipse.jgit.lib.ConfigConstants;
import org.eclipse.jgit.storage.file.FileBasedConfig;
import org.eclipse.jgit.util.FS;
import org.eclipse.jgit.util.StringUtils;
import org.eclipse.jgit.util.SystemReader;

/**
 * Where JGit finds the system-wide git configuration: {@code /etc/gitconfig}, where git built for
 * {@code /usr} (as distributions build it) keeps it, read as a file. JGit's own default runs the
 * {@code git} program twice to ask ({@code git --version}, {@code git config --system --list}),
 * which the indexer never needs git for, on every run. {@code GIT_CONFIG_NOSYSTEM} still skips it.
 *
 * <p>Below JGit's own configuration (and so below the system's, the user's and each repository's),
 * defaults for the mirrors' garbage collection, which {@link GitMirror} starts itself after a fetch
 * so that a collection that fails cannot fail the fetch ({@code fetch.autogc=false}): it runs
 * before the fetch returns, not on a background thread that a short process's exit cuts short
 * ({@code gc.autoDetach=false}); it deletes the packs it replaced at once, or they would still
 * count as too many and the next fetch would repack again ({@code gc.prunePackExpire=now}; a
 * command reading the same mirror meanwhile finds the objects in the new pack, as JGit looks
 * again when a pack is gone); and it is started by the count of packs alone, not by loose
 * objects, which in a mirror are the unreachable ones a collection loosened and which the next
 * collection would loosen again ({@code gc.auto=0}).
 */
final class GitConfigs {
    private static final File SYSTEM = new File("/etc/gitconfig");

    private GitConfigs() {}

    /** Installs the rule, once per process; later calls do nothing. */
    static synchronized void install() {
        SystemReader current = SystemReader.getInstance();
        if (current instanceof FileSystemConfig) {
            return;
        }
        SystemReader.setInstance(new FileSystemConfig(current));
    }

    private static final class FileSystemConfig extends SystemReader.Delegate {
        FileSystemConfig(SystemReader delegate) {
            super(delegate);
        }

        @Override
        public FileBasedConfig openJGitConfig(Config parent, FS fs) {
            Config defaults = new Config(parent);
            defaults.setBoolean(ConfigConstants.CONFIG_FETCH_SECTION, null, "autogc", false);
            defaults.setBoolean(ConfigConstants.CONFIG_GC_SECTION, null, ConfigConstants.CONFIG_KEY_AUTODETACH, false);
            defaults.setString(
                    ConfigConstants.CONFIG_GC_SECTION, null, ConfigConstants.CONFIG_KEY_PRUNEPACKEXPIRE, "now");
            defaults.setInt(ConfigConstants.CONFIG_GC_SECTION, null, ConfigConstants.CONFIG_KEY_AUTO, 0);
            return super.openJGitConfig(defaults, fs);
        }

        @Override
        public FileBasedConfig openSystemConfig(Config parent, FS fs) {
            File file = StringUtils.isEmptyOrNull(getenv("GIT_CONFIG_NOSYSTEM")) ? SYSTEM : null;
            return new FileBasedConfig(parent, file, fs) {
                @Override
                public void load() throws IOException, ConfigInvalidException {
                    if (file != null && file.isFile()) {
                        super.load();
                    }
                }

                @Override
                public boolean isOutdated() {
                    return file != null && super.isOutdated();
                }
            };
        }
    }
}
