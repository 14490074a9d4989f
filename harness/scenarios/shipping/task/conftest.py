# Present so pytest treats this folder as the task's root: tests import `shipping` from here.
