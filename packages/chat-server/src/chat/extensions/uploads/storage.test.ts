import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../../config.ts';

const apps = [{ key: 'k', secret: 's' }];

describe('the upload store and job lease config', () => {
  it('keeps files on disk unless told otherwise', () => {
    const config = parseConfig({ apps });
    expect(config.uploads.store).toBe('local');
    expect(config.jobs).toEqual({ leaseMs: 15_000, sweepMs: 1000 });
  });

  it('refuses the s3 store without a bucket section, naming the key', () => {
    expect(() => parseConfig({ apps, uploads: { store: 's3' } })).toThrow(/uploads\.s3: .*missing/);
  });

  it('refuses a bucket name S3 would refuse and a prefix that is not plain segments', () => {
    expect(() =>
      parseConfig({ apps, uploads: { store: 's3', s3: { bucket: 'Bad_Bucket' } } }),
    ).toThrow(/uploads\.s3\.bucket/);
    expect(() =>
      parseConfig({ apps, uploads: { store: 's3', s3: { bucket: 'dao-huu', prefix: '../x/' } } }),
    ).toThrow(/uploads\.s3\.prefix/);
  });

  it('refuses a sweep too slow for its lease, which would let the holder lose it while alive', () => {
    expect(() => parseConfig({ apps, jobs: { leaseMs: 3000, sweepMs: 2000 } })).toThrow(
      /jobs\.sweepMs/,
    );
  });

  it('reads the store from CHAT_UPLOADS_STORE and CHAT_S3_*', () => {
    const config = loadConfig({
      CHAT_UPLOADS_STORE: 's3',
      CHAT_S3_ENDPOINT: 'http://127.0.0.1:9000',
      CHAT_S3_BUCKET: 'dao-huu',
      CHAT_S3_FORCE_PATH_STYLE: 'true',
      CHAT_S3_PREFIX: 'chat/',
      CHAT_JOB_LEASE_MS: '6000',
    });
    expect(config.uploads.store).toBe('s3');
    expect(config.uploads.s3).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'dao-huu',
      region: 'us-east-1',
      forcePathStyle: true,
      prefix: 'chat/',
    });
    expect(config.jobs.leaseMs).toBe(6000);
    expect(loadConfig({}).uploads.s3).toBeUndefined();
  });
});
