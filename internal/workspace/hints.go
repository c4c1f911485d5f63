package workspace

import (
	"errors"
	"strings"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

// HintFor returns the next step for err: the hint attached to it, or the
// one for a well-known error of the layers below; "" when none fits. Every
// front end prints it after the error.
func HintFor(err error) string {
	if h := hint.Of(err); h != "" {
		return h
	}
	var fe *memdir.FrontmatterError
	switch {
	case memdir.IsLocked(err):
		return "another memdir is writing this folder; retry when it is done, or raise MEMDIR_LOCK_TIMEOUT (now " + DefaultLockTimeout.String() + " by default)"
	case errors.Is(err, paths.ErrInvalidName):
		return "a memory's name is a title on one line without control characters; a file name is a plain name ending in .md, without '/', '\\', '..' or a leading dot; see 'memdir list'"
	case errors.Is(err, paths.ErrSettings):
		return "fix the JSON at the place named above (Claude Code reads the same file; memdir takes autoMemoryDirectory and autoMemoryEnabled from it)"
	case errors.Is(err, paths.ErrLinkOut):
		return "replace the link with a folder, or add where it leads to MEMDIR_ALLOWED_ROOTS if that is meant; 'memdir where' shows the folders in use"
	case errors.Is(err, paths.ErrInvalidOverride):
		return "fix or unset the override named above (MEMDIR_ALLOWED_ROOTS adds places it may point into)"
	case errors.As(err, &fe):
		return "fix the file with 'memdir edit " + strings.TrimSuffix(fe.File, ".md") + "', then run 'memdir doctor'"
	case errors.Is(err, memdir.ErrNotFound):
		return "run 'memdir list' to see the memories of this project"
	case errors.Is(err, memdir.ErrNameTaken):
		return "give this memory another name, or forget the other one first ('memdir list' shows both)"
	case errors.Is(err, memdir.ErrAmbiguous):
		return "use the file name instead ('memdir list' shows it), or rename one of them with 'memdir edit FILE'"
	case errors.Is(err, memdir.ErrConflict):
		return "another program changed the file meanwhile; run the command again"
	case errors.Is(err, memdir.ErrSymlinkEscape):
		return "memdir follows no link out of the memory folder; replace the link with a file"
	}
	return ""
}
