package io.trigrep.indexer.files;

import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * A failure as one line an operator can act on. A file system exception's message is often its
 * path alone ({@code /srv/corpus/pkg/dir}); this says what went wrong with it too.
 */
public final class IoMessages {
    private IoMessages() {}

    public static String describe(Throwable e) {
        if (e instanceof FileSystemException f && f.getFile() != null && f.getReason() == null) {
            String what = switch (f) {
                case NoSuchFileException x -> "no such file or folder";
                case AccessDeniedException x -> "permission denied";
                case NotDirectoryException x -> "not a folder";
                case FileAlreadyExistsException x -> "already exists";
                case DirectoryNotEmptyException x -> "folder not empty";
                default -> f.getClass().getSimpleName();
            };
            return f.getFile() + (f.getOtherFile() == null ? "" : " -> " + f.getOtherFile()) + ": " + what;
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
