-- Version 5: a vm run's kernel in a column of its own. Until now a run's
-- variant was the rmap design of an engine run and the kernel label of a
-- vm run, and the nightly keyed a vm baseline on it: variant is now the
-- design alone, kernel_label the guest's kernel (a recipe's label, an
-- image's path, a commit's short hash and subject).
ALTER TABLE runs ADD COLUMN kernel_label TEXT;
UPDATE runs SET kernel_label = variant, variant = NULL WHERE target = 'vm';
